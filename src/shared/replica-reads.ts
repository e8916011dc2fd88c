import type { EntityManager } from '@mikro-orm/postgresql';
import type { ReadRouting, ReplicaRead } from '../db/read-routing.js';
import { currentScope } from '../db/request-scope.js';
import { connectionLost } from '../errors.js';
import type { ServiceContext } from './context.js';

/** What a routed context knows of its reads (one per request: src/server/request-context.ts). */
interface RoutedReads {
  /** The context without its `em`. */
  base: Omit<ServiceContext, 'em'>;
  primary: EntityManager;
  /** Chosen at the first read: a replica's, or null (none usable: the primary). */
  replica: ReplicaRead | null | undefined;
  /** Writing work of the request was handed the primary's `em`. */
  wrote: boolean;
}

const routed = new WeakMap<ServiceContext, RoutedReads>();

/**
 * A context whose `em` reads from a replica while the request is not writing: chosen on the first
 * read and kept for the request (one replica's view throughout), the primary when none is usable.
 * Writing work (a mutation, a use case: db/request-scope.ts) always gets the primary's `em`.
 */
export function withRoutedReads(base: Omit<ServiceContext, 'em'>, primary: EntityManager, reads: ReadRouting): ServiceContext {
  const state: RoutedReads = { base, primary, replica: undefined, wrote: false };
  const ctx = Object.defineProperty({ ...base }, 'em', {
    enumerable: true,
    get(): EntityManager {
      if (currentScope()?.writing) {
        state.wrote = true;
        return primary;
      }
      if (state.replica === undefined) state.replica = reads.replicaFork();
      return state.replica?.em ?? primary;
    },
  }) as ServiceContext;
  routed.set(ctx, state);
  return ctx;
}

/**
 * A request that read from a replica failed with `error`. When the replica lost the connection under
 * it (refused, reset, shut down, session terminated: `connectionLost`), and the request wrote
 * nothing, the replica is skipped from now on (`ReplicaRead.lost`) and the answer is a context that
 * reads from the primary: the door runs the request again with it, once (that context is not
 * routed, so a second failure stands). Null for anything else, and the error stands: a statement's
 * own error, a timeout of ours (the request's deadline is spent), a read that never reached a
 * replica, and any request that did writing work (never run twice).
 */
export function primaryRetryOf(ctx: ServiceContext, error: unknown): ServiceContext | null {
  const state = routed.get(ctx);
  if (!state?.replica || state.wrote || !connectionLost(error)) return null;
  routed.delete(ctx);
  state.replica.lost(error);
  return { ...state.base, em: state.primary };
}
