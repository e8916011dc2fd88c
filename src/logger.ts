import { pino, type Logger } from 'pino';
import type { AppConfig } from './config.js';

export type { Logger };

/** Structured JSON logs; every request gets a child logger carrying its request id. */
export function createLogger(config: Pick<AppConfig, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, base: { service: 'mallfront' } });
}
