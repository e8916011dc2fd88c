/**
 * The demo catalog: small, deterministic and realistic enough to click through. The category tree is
 * the spec's reference shape: 6 top-level nodes, each with 2 children, each of those with 2 children.
 */
export const CATEGORY_TREE: [string, [string, [string, string]][]][] = [
  ['Electronics', [['Phones', ['Smartphones', 'Phone Cases']], ['Computers', ['Laptops', 'Keyboards']]]],
  ['Fashion', [['Women', ['Dresses', 'Handbags']], ['Men', ['Shirts', 'Sneakers']]]],
  ['Home & Living', [['Kitchen', ['Cookware', 'Tableware']], ['Bedroom', ['Bedding', 'Lamps']]]],
  ['Beauty', [['Skincare', ['Cleansers', 'Moisturizers']], ['Makeup', ['Lipstick', 'Foundation']]]],
  ['Sports & Outdoors', [['Fitness', ['Yoga Mats', 'Dumbbells']], ['Camping', ['Tents', 'Backpacks']]]],
  ['Food & Grocery', [['Snacks', ['Nuts', 'Chocolate']], ['Drinks', ['Tea', 'Coffee']]]],
];

/**
 * Chinese names of the leaf categories: every fourth demo product is named and described in Chinese
 * (a quarter of the catalog), so the CJK search has something to find.
 */
export const LEAF_NAMES_ZH: Record<string, string> = {
  Smartphones: '智能手机', 'Phone Cases': '手机壳', Laptops: '笔记本电脑', Keyboards: '键盘',
  Dresses: '连衣裙', Handbags: '手提包', Shirts: '衬衫', Sneakers: '运动鞋',
  Cookware: '炊具', Tableware: '餐具', Bedding: '床上用品', Lamps: '台灯',
  Cleansers: '洁面乳', Moisturizers: '保湿霜', Lipstick: '口红', Foundation: '粉底液',
  'Yoga Mats': '瑜伽垫', Dumbbells: '哑铃', Tents: '帐篷', Backpacks: '双肩包',
  Nuts: '坚果', Chocolate: '巧克力', Tea: '茶叶', Coffee: '咖啡',
};

export const BRANDS = [
  'Aurora', 'Bamboo & Co', 'Cobalt', 'Driftwood', 'Ember', 'Fjord', 'Granite', 'Harbor', 'Ivy Lane', 'Juniper',
];

export interface DemoShop {
  slug: string;
  name: string;
  /** Top-level categories the shop sells in (by index into CATEGORY_TREE). */
  sells: number[];
  profile?: { description: string; bannerUrl?: string; contactPhone?: string; address?: string };
}

export const SHOPS: DemoShop[] = [
  {
    slug: 'tech-harbor', name: 'Tech Harbor', sells: [0],
    profile: { description: 'Phones, laptops and the gear around them.', contactPhone: '400-800-1001', address: 'Shenzhen, Nanshan District' },
  },
  {
    slug: 'style-avenue', name: 'Style Avenue', sells: [1, 3],
    profile: { description: 'Clothing, bags and beauty picks.', bannerUrl: '/demo-images/banners/style-avenue.svg' },
  },
  {
    slug: 'home-nest', name: 'Home Nest', sells: [2],
    profile: { description: 'Everything for a cosy home.' },
  },
  {
    slug: 'fresh-pantry', name: 'Fresh Pantry', sells: [5],
    profile: { description: 'Snacks, tea and coffee, shipped fresh.', address: 'Hangzhou, Xihu District' },
  },
  // A shop without a profile: listed all the same, with its profile fields absent.
  { slug: 'outdoor-lab', name: 'Outdoor Lab', sells: [4] },
];

/** Variant sets a product may have; prices are in minor units (fen). */
export const VARIANTS: string[][] = [['Standard'], ['Small', 'Large'], ['Black', 'White', 'Blue']];

/**
 * The starting stock of variant `variant` of the `n`th product created (from 1, in id order): varied
 * so listings look real, and a formula so a test can account for every unit the demo orders took.
 */
export const startingStock = (n: number, variant: number) => 20 + ((n * 13 + variant * 7) % 180);

export const DEMO_PASSWORD = 'mallfront-dev';
export const ADMIN_EMAIL = 'admin@mallfront.test';
export const CUSTOMERS = [
  { email: 'alice@mallfront.test', displayName: 'Alice' },
  { email: 'bob@mallfront.test', displayName: 'Bob' },
];
/** What each demo customer starts with: ¥10,000.00 and 5,000 points. */
export const SEED_FUNDS = 1_000_000;
export const SEED_POINTS = 5_000;

export const operatorEmail = (shopSlug: string) => `ops@${shopSlug}.mallfront.test`;
/** The first demo shop's finance member (shop role `finance`). */
export const financeEmail = (shopSlug: string) => `finance@${shopSlug}.mallfront.test`;

/** The points mall's demo items (prices in points); one is not published yet. */
export const POINTS_PRODUCTS = [
  { name: 'Mallfront travel mug', description: 'Insulated steel mug, 350 ml.', pointsPrice: 800, stock: 40, published: true },
  { name: 'Canvas tote bag', description: 'Sturdy cotton tote with the Mallfront logo.', pointsPrice: 500, stock: 60, published: true },
  { name: 'Wireless earbuds', description: 'Bluetooth 5.3, 24 h with the case.', pointsPrice: 4_500, stock: 5, published: true },
  { name: 'Picnic blanket', description: 'Arriving next season.', pointsPrice: 2_000, stock: 20, published: false },
];
