import { z } from 'zod';
import { RegionView } from '../../services/shipping/regions.js';
import { SavedAddressView } from '../../services/shipping/address-book.service.js';
import { named } from './common.js';

export const Region = named('Region', RegionView);
export const RegionList = named('RegionList', z.strictObject({ items: z.array(Region) }));
export const SavedAddress = named('SavedAddress', SavedAddressView);
export const SavedAddressList = named('SavedAddressList', z.strictObject({ items: z.array(SavedAddress) }));
