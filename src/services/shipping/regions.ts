import { z } from '../../shared/validate.js';


/**
 * Every region the mall ships to: the 31 mainland provinces, autonomous regions and municipalities,
 * and Hong Kong, Macau and Taiwan, under their ISO 3166-2:CN codes (freight templates price them by
 * these codes; a region a template does not name takes the template's own terms). The address book
 * and the storefront's region choice offer exactly this list.
 */
export const REGION_CODES = [
  'CN-AH', 'CN-BJ', 'CN-CQ', 'CN-FJ', 'CN-GD', 'CN-GS', 'CN-GX', 'CN-GZ', 'CN-HA', 'CN-HB', 'CN-HE', 'CN-HI', 'CN-HL', 'CN-HN', 'CN-JL', 'CN-JS',
  'CN-JX', 'CN-LN', 'CN-NM', 'CN-NX', 'CN-QH', 'CN-SC', 'CN-SD', 'CN-SH', 'CN-SN', 'CN-SX', 'CN-TJ', 'CN-XJ', 'CN-XZ', 'CN-YN', 'CN-ZJ', 'CN-HK',
  'CN-MO', 'CN-TW',
] as const;
export type RegionCode = (typeof REGION_CODES)[number];

/**
 * A region of the list below, exactly as it spells it: the one rule of every region a request names
 * (a shipping address, a saved address, a freight template's region, a preview), described by the
 * OpenAPI document as this enum and by GraphQL as `RegionCode` (docs/api.md, "Shipping").
 */
export const regionCode = z.enum(REGION_CODES, { error: 'Choose one of the regions GET /api/regions lists, such as CN-BJ' });

/** A region the mall ships to: REST publishes this schema and GraphQL's type is made from it. */
export const RegionView = z
  .strictObject({
    // ISO 3166-2:CN, as freight templates and orders spell it.
    code: regionCode,
    name: z.string(),
    localName: z.string().describe('The name in Chinese'),
  })
  .describe('A region the mall ships to, by its ISO 3166-2:CN code');
export type RegionView = z.infer<typeof RegionView>;

export const SHIPPING_REGIONS: readonly RegionView[] = [
  { code: 'CN-AH', name: 'Anhui', localName: '安徽' },
  { code: 'CN-BJ', name: 'Beijing', localName: '北京' },
  { code: 'CN-CQ', name: 'Chongqing', localName: '重庆' },
  { code: 'CN-FJ', name: 'Fujian', localName: '福建' },
  { code: 'CN-GD', name: 'Guangdong', localName: '广东' },
  { code: 'CN-GS', name: 'Gansu', localName: '甘肃' },
  { code: 'CN-GX', name: 'Guangxi', localName: '广西' },
  { code: 'CN-GZ', name: 'Guizhou', localName: '贵州' },
  { code: 'CN-HA', name: 'Henan', localName: '河南' },
  { code: 'CN-HB', name: 'Hubei', localName: '湖北' },
  { code: 'CN-HE', name: 'Hebei', localName: '河北' },
  { code: 'CN-HI', name: 'Hainan', localName: '海南' },
  { code: 'CN-HL', name: 'Heilongjiang', localName: '黑龙江' },
  { code: 'CN-HN', name: 'Hunan', localName: '湖南' },
  { code: 'CN-JL', name: 'Jilin', localName: '吉林' },
  { code: 'CN-JS', name: 'Jiangsu', localName: '江苏' },
  { code: 'CN-JX', name: 'Jiangxi', localName: '江西' },
  { code: 'CN-LN', name: 'Liaoning', localName: '辽宁' },
  { code: 'CN-NM', name: 'Inner Mongolia', localName: '内蒙古' },
  { code: 'CN-NX', name: 'Ningxia', localName: '宁夏' },
  { code: 'CN-QH', name: 'Qinghai', localName: '青海' },
  { code: 'CN-SC', name: 'Sichuan', localName: '四川' },
  { code: 'CN-SD', name: 'Shandong', localName: '山东' },
  { code: 'CN-SH', name: 'Shanghai', localName: '上海' },
  { code: 'CN-SN', name: 'Shaanxi', localName: '陕西' },
  { code: 'CN-SX', name: 'Shanxi', localName: '山西' },
  { code: 'CN-TJ', name: 'Tianjin', localName: '天津' },
  { code: 'CN-XJ', name: 'Xinjiang', localName: '新疆' },
  { code: 'CN-XZ', name: 'Tibet', localName: '西藏' },
  { code: 'CN-YN', name: 'Yunnan', localName: '云南' },
  { code: 'CN-ZJ', name: 'Zhejiang', localName: '浙江' },
  { code: 'CN-HK', name: 'Hong Kong', localName: '香港' },
  { code: 'CN-MO', name: 'Macau', localName: '澳门' },
  { code: 'CN-TW', name: 'Taiwan', localName: '台湾' },
];

/**
 * The regions as a shopper looks for theirs: by name, A to Z (the list above is by code, where
 * Hebei, Henan and Hubei are CN-HE, CN-HA and CN-HB). Sorted once, with a fixed locale, so every
 * process answers the same order.
 */
const BY_NAME: readonly RegionView[] = [...SHIPPING_REGIONS].sort((a, b) => a.name.localeCompare(b.name, 'en'));

/** The regions, by name. */
export function listShippingRegions(): RegionView[] {
  return BY_NAME.map((r) => ({ ...r }));
}
