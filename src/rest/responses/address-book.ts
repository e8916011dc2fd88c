import { z } from 'zod';
import { regionCode } from '../../services/shipping/regions.js';
import { id, named, timestamp } from './common.js';

export const Region = named('Region', z.strictObject({ code: regionCode, name: z.string(), localName: z.string() }));
export const RegionList = named('RegionList', z.strictObject({ items: z.array(Region) }));
export const SavedAddress = named(
  'SavedAddress',
  z.strictObject({ id, recipient: z.string(), phone: z.string(), region: regionCode, address: z.string(), isDefault: z.boolean(), createdAt: timestamp }),
);
export const SavedAddressList = named('SavedAddressList', z.strictObject({ items: z.array(SavedAddress) }));
