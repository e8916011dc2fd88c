/** A rating as text and a visual bar of stars (the text is what assistive technology reads). */
export function Stars({ average, count }: { average: number; count?: number }) {
  const rounded = Math.round(average);
  return (
    <span className="stars" title={`${average.toFixed(1)} out of 5`}>
      <span aria-hidden="true">{'★'.repeat(rounded) + '☆'.repeat(5 - rounded)}</span>
      <span className="visually-hidden">Rated {average.toFixed(1)} out of 5</span>
      {count !== undefined ? <span> ({count})</span> : null}
    </span>
  );
}
