/**
 * The deepest nesting of objects and arrays a JSON body may have, on /api and /graphql alike. Our
 * deepest real input (a GraphQL operation's variables holding a product with SKUs) is under 8;
 * deeper text is refused before it is parsed, so no recursive walk over it (key case conversion,
 * validation) can run out of stack.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether raw JSON text nests objects and arrays deeper than `limit`: one pass over the bytes,
 * skipping strings (every byte of a multi-byte UTF-8 character is >= 0x80, so it cannot be mistaken
 * for a bracket or a quote). Malformed text is left for the parser to refuse.
 */
export function jsonNestsDeeperThan(text: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
