/** Arguments or input fields as a service takes them: none is null. */
export type WithoutNulls<T> = { [K in keyof T]: Exclude<T[K], null> };

/**
 * GraphQL hands an optional argument or input field the client left out (or sent as a variable it
 * did not set) as null or undefined; a service treats an absent value as its default and refuses
 * null, as over REST. This leaves out every such key (one level deep).
 */
export function withoutNulls<T extends object>(args: T): WithoutNulls<T> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null && value !== undefined)) as WithoutNulls<T>;
}
