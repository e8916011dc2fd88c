import type { Response } from 'express';
import type { ServiceContext } from '../shared/context.js';

/**
 * What the request pipeline keeps on `res.locals` (Express types them `any`): the request id from
 * the first middleware on, the service context on REST routes. The server sets them; the REST door
 * reads them.
 */
export interface RequestLocals {
  requestId: string;
  ctx?: ServiceContext;
}

export const requestLocals = (res: Response) => res.locals as RequestLocals;
