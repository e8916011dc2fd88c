import { useState } from 'react';

/** Rows edited in place and put in order by Up and Down buttons (keyboard reachable, unlike a drag). */
export function useOrderedRows<Row extends object>(initial: () => Row[]) {
  const [rows, setRows] = useState<(Row & { key: number })[]>(() => initial().map((r, i) => ({ ...r, key: i + 1 })));
  const nextKey = () => rows.reduce((max, r) => Math.max(max, r.key), 0) + 1;
  return {
    rows,
    reset: (next: Row[]) => setRows(next.map((r, i) => ({ ...r, key: i + 1 }))),
    add: (row: Row) => setRows((all) => [...all, { ...row, key: nextKey() }]),
    remove: (key: number) => setRows((all) => all.filter((r) => r.key !== key)),
    set: (key: number, patch: Partial<Row>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r))),
    move: (key: number, by: -1 | 1) =>
      setRows((all) => {
        const i = all.findIndex((r) => r.key === key);
        const j = i + by;
        if (i < 0 || j < 0 || j >= all.length) return all;
        const copy = [...all];
        [copy[i], copy[j]] = [copy[j], copy[i]];
        return copy;
      }),
  };
}

export function MoveButtons({ what, index, count, onMove }: { what: string; index: number; count: number; onMove: (by: -1 | 1) => void }) {
  return (
    <span className="row-actions">
      <button type="button" aria-label={`Move ${what} up`} disabled={index === 0} onClick={() => onMove(-1)}>
        ↑
      </button>
      <button type="button" aria-label={`Move ${what} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
        ↓
      </button>
    </span>
  );
}
