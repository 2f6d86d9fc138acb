import { Button } from 'react-aria-components';

/** Forward-only cursors from the API, kept as a stack so "Previous page" can go back. */
export function Pager({
  label,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
}: {
  label: string;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious(): void;
  onNext(): void;
}) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav aria-label={label} className="pager">
      <Button isDisabled={!hasPrevious} onPress={onPrevious}>
        Previous page
      </Button>
      <Button isDisabled={!hasNext} onPress={onNext}>
        Next page
      </Button>
    </nav>
  );
}
