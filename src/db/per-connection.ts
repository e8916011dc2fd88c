import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A map kept per database connection: what a process remembers about one database (each test
 * database has its own) must not answer for another. Returns the accessor of that map for an `em`.
 */
export function perConnectionMap<V>(): (em: EntityManager) => Map<string, V> {
  return perConnection(() => new Map<string, V>());
}

/** One value per database connection, made on first use by `create`. */
export function perConnection<V>(create: () => V): (em: EntityManager) => V {
  const values = new WeakMap<object, V>();
  return (em) => {
    const connection = em.getConnection();
    let value = values.get(connection);
    if (value === undefined) {
      value = create();
      values.set(connection, value);
    }
    return value;
  };
}
