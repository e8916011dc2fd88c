import { graphql } from '../gql';

/** Every page's query reads the platform currency with its data, so amounts never need a second request. */
export const CurrencyFields = graphql(`
  fragment CurrencyFields on Currency {
    code
    symbol
    minorUnitDigits
  }
`);
