import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A map kept per database connection: what a process remembers about one database (each test
 * database has its own) must not answer for another. Returns the accessor of that map for an `em`.
 */
export function perConnectionMap<V>(): (em: EntityManager) => Map<string, V> {
  const maps = new WeakMap<object, Map<string, V>>();
  return (em) => {
    const connection = em.getConnection();
    let map = maps.get(connection);
    if (!map) {
      map = new Map();
      maps.set(connection, map);
    }
    return map;
  };
}
