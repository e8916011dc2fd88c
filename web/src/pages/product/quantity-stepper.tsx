/**
 * How many to buy: − and + around the number (the number can be typed too), kept between 1 and
 * `max` (the SKU's stock). The field is what assistive technology reads as "Quantity".
 */
export function QuantityStepper({ value, max, onChange }: { value: number; max: number; onChange: (quantity: number) => void }) {
  const set = (n: number) => onChange(Math.min(max, Math.max(1, Math.trunc(n) || 1)));
  return (
    <div className="stepper">
      <button type="button" aria-label="One fewer" onClick={() => set(value - 1)} disabled={value <= 1}>
        −
      </button>
      <label className="visually-hidden" htmlFor="buy-quantity">
        Quantity
      </label>
      <input id="buy-quantity" type="number" inputMode="numeric" min={1} max={max} value={value} onChange={(e) => set(Number(e.target.value))} />
      <button type="button" aria-label="One more" onClick={() => set(value + 1)} disabled={value >= max}>
        +
      </button>
    </div>
  );
}
