import { money } from '../format';

export interface BalancePoint {
  at: string;
  posted: string;
}

const WIDTH = 640;
const HEIGHT = 200;
const LEFT = 96;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 28;

/** The day (UTC, YYYY-MM-DD) an interval ending at this instant covers: the instant is the next day's start. */
const day = (end: string) => new Date(Date.parse(end) - 1).toISOString().slice(0, 10);

/**
 * A line of posted balances, one point per interval, as an SVG drawn here (no chart library, no canvas, no
 * inline style: the stroke and fill come from the stylesheet). The picture is one image with a name that says
 * what it is; its points are also in a visually hidden table, the text alternative a screen reader reads.
 * Positions are computed from the decimal strings as numbers, which only places pixels: every amount shown is
 * formatted from the API's exact string.
 */
export function BalanceChart({
  points,
  currency,
  label,
  caption,
}: {
  points: readonly BalancePoint[];
  currency: string;
  label: string;
  caption: string;
}) {
  if (points.length === 0) return <p className="empty">No balance history.</p>;
  const values = points.map((point) => Number(point.posted));
  let lowest = 0;
  let highest = 0;
  values.forEach((value, index) => {
    if (value < values[lowest]!) lowest = index;
    if (value > values[highest]!) highest = index;
  });
  const min = values[lowest]!;
  const max = values[highest]!;
  const span = max - min || 1;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (index: number) => LEFT + (points.length === 1 ? plotWidth / 2 : (index / (points.length - 1)) * plotWidth);
  const y = (value: number) => TOP + (max === min ? plotHeight / 2 : ((max - value) / span) * plotHeight);
  const line = values
    .map((value, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(value).toFixed(1)}`)
    .join(' ');
  const area = `${line} L${x(points.length - 1).toFixed(1)},${TOP + plotHeight} L${x(0).toFixed(1)},${TOP + plotHeight} Z`;
  return (
    <figure className="chart">
      <div role="img" aria-label={label} className="chart-picture">
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="xMidYMid meet"
          aria-hidden="true"
          focusable="false"
        >
          <line className="chart-axis" x1={LEFT} y1={TOP + plotHeight} x2={WIDTH - RIGHT} y2={TOP + plotHeight} />
          <line className="chart-axis" x1={LEFT} y1={TOP} x2={LEFT} y2={TOP + plotHeight} />
          <text className="chart-label" x={LEFT - 6} y={TOP + 4} textAnchor="end">
            {money(points[highest]!.posted, currency)}
          </text>
          <text className="chart-label" x={LEFT - 6} y={TOP + plotHeight} textAnchor="end">
            {money(points[lowest]!.posted, currency)}
          </text>
          <text className="chart-label" x={LEFT} y={HEIGHT - 8} textAnchor="start">
            {day(points[0]!.at)}
          </text>
          <text className="chart-label" x={WIDTH - RIGHT} y={HEIGHT - 8} textAnchor="end">
            {day(points[points.length - 1]!.at)}
          </text>
          <path className="chart-area" d={area} />
          <path className="chart-line" d={line} />
        </svg>
      </div>
      {/* Hidden by its frame: a table takes the width of its content whatever its own width says. */}
      <div className="visually-hidden">
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">End of</th>
              <th scope="col">Posted balance</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.at}>
                <td>{point.at}</td>
                <td>{money(point.posted, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
