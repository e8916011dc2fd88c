import { useState, type DragEvent } from 'react';

/**
 * Rows edited in place and put in order two ways: dragged by their handle (HTML5 drag and drop) or
 * moved by Up and Down buttons, which keep the ordering keyboard reachable.
 */
export function useOrderedRows<Row extends object>(initial: () => Row[]) {
  const [rows, setRows] = useState<(Row & { key: number })[]>(() => initial().map((r, i) => ({ ...r, key: i + 1 })));
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const nextKey = () => rows.reduce((max, r) => Math.max(max, r.key), 0) + 1;
  const moveTo = (key: number, to: number) =>
    setRows((all) => {
      const from = all.findIndex((r) => r.key === key);
      if (from < 0 || to < 0 || to >= all.length || from === to) return all;
      const copy = [...all];
      const [row] = copy.splice(from, 1);
      copy.splice(to, 0, row);
      return copy;
    });
  const endDrag = () => {
    setDragged(null);
    setOver(null);
  };
  return {
    rows,
    reset: (next: Row[]) => setRows(next.map((r, i) => ({ ...r, key: i + 1 }))),
    add: (row: Row) => setRows((all) => [...all, { ...row, key: nextKey() }]),
    remove: (key: number) => setRows((all) => all.filter((r) => r.key !== key)),
    set: (key: number, patch: Partial<Row>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r))),
    move: (key: number, by: -1 | 1) => moveTo(key, rows.findIndex((r) => r.key === key) + by),
    /** The props of a row's drag handle. */
    handle: (key: number) => ({
      draggable: true,
      onDragStart: (e: DragEvent) => {
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', String(key));
        setDragged(key);
      },
      onDragEnd: endDrag,
    }),
    /** The props of a row a dragged row may be dropped on: it takes that row's place. */
    target: (key: number, index: number) => ({
      onDragOver: (e: DragEvent) => {
        if (dragged === null) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setOver(key);
      },
      onDrop: (e: DragEvent) => {
        e.preventDefault();
        if (dragged !== null) moveTo(dragged, index);
        endDrag();
      },
      className: over === key && dragged !== key ? 'drop-target' : dragged === key ? 'dragging' : undefined,
    }),
  };
}

function MoveButtons({ what, index, count, onMove }: { what: string; index: number; count: number; onMove: (by: -1 | 1) => void }) {
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

/** A row's place: a handle to drag with a pointer, and the Up and Down buttons for the keyboard. */
export function RowOrder({ what, index, count, handle, onMove }: { what: string; index: number; count: number; handle: ReturnType<ReturnType<typeof useOrderedRows>['handle']>; onMove: (by: -1 | 1) => void }) {
  return (
    <span className="row-actions">
      <span className="drag-handle" title={`Drag ${what} to another place`} data-testid="drag-handle" {...handle}>
        ⠿
      </span>
      {index + 1}
      <MoveButtons what={what} index={index} count={count} onMove={onMove} />
    </span>
  );
}
