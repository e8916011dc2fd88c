/** A payout batch's threshold, as the platform console's form checks it and payouts.ts parses it; zod and the shared rules only. */
import { z } from '../../shared/input-rules.js';

export const BatchInput = z.object({ threshold: z.number().int().min(1, 'must be at least one minor unit (0.01)').max(1_000_000_000, 'must be at most 1,000,000,000 minor units') });
