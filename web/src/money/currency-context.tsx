import { createContext, useContext, type ReactNode } from 'react';
import { formatMoney, type Currency } from './format-money';

const CurrencyContext = createContext<Currency | null>(null);

/** Each page reads the currency in its one query and provides it to the amounts it shows. */
export function CurrencyProvider({ currency, children }: { currency: Currency; children: ReactNode }) {
  return <CurrencyContext.Provider value={currency}>{children}</CurrencyContext.Provider>;
}

export function useCurrency(): Currency {
  const currency = useContext(CurrencyContext);
  if (!currency) throw new Error('Money shown outside a CurrencyProvider');
  return currency;
}

/** An amount in minor units of the platform currency. */
export function Money({ amount, className }: { amount: number; className?: string }) {
  const currency = useCurrency();
  return (
    <data className={className ?? 'money'} value={amount}>
      {formatMoney(amount, currency)}
    </data>
  );
}
