import { type ColumnDef, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useEffect, useId, useRef, useState } from 'react';

/**
 * Whether the element is narrower than what it holds (a table on a phone): then it scrolls sideways by itself, takes
 * the keyboard's focus (so arrow keys scroll it) and says so.
 */
function useScrollsSideways() {
  const frame = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  });
  return { frame, scrolls };
}

/**
 * A read-only table with TanStack Table (headless: the markup is a plain, accessible <table> with a caption
 * and column headers). Paging is the API's: the caller passes one page of rows.
 */
export function DataTable<Row>({
  caption,
  columns,
  data,
  empty,
}: {
  caption: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<Row, any>[];
  data: Row[];
  empty: string;
}) {
  const table = useReactTable({ data, columns, getCoreRowModel: getCoreRowModel() });
  const { frame, scrolls } = useScrollsSideways();
  const cue = useId();
  if (data.length === 0) return <p className="empty">{empty}</p>;
  return (
    <div
      className={scrolls ? 'table-scroll scrolls' : 'table-scroll'}
      ref={frame}
      tabIndex={scrolls ? 0 : undefined}
      role={scrolls ? 'region' : undefined}
      aria-label={scrolls ? caption : undefined}
      aria-describedby={scrolls ? cue : undefined}
    >
      {scrolls ? (
        <p className="scroll-cue" id={cue}>
          Scroll sideways for more columns →
        </p>
      ) : null}
      <table>
        <caption>{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col">
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
