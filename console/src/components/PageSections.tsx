/**
 * "On this page": links to a long page's sections (by their headings' ids), so an agent reaches the transactions or
 * the flags without scrolling past every form. Plain fragment links: the browser scrolls and the address keeps no
 * state of the console's.
 */
export function PageSections({ sections }: { sections: readonly (readonly [headingId: string, label: string])[] }) {
  return (
    <nav aria-label="On this page" className="page-sections">
      <ul>
        {sections.map(([headingId, label]) => (
          <li key={headingId}>
            <a href={`#${headingId}`}>{label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
