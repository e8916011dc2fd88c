import type { MikroORM } from '@mikro-orm/postgresql';
import { Category } from '../entities/category.entity.js';
import { Brand } from '../entities/brand.entity.js';
import { Shop } from '../entities/shop.entity.js';
import { ShopProfile } from '../entities/shop-profile.entity.js';
import { Product, ProductStatus } from '../entities/product.entity.js';
import { Sku } from '../entities/sku.entity.js';
import { adjustSkuStock } from '../services/inventory/inventory.service.js';
import { HomeContentItem, ContentKind } from '../entities/home-content-item.entity.js';
import { PointsProduct } from '../entities/points-product.entity.js';
import { User, Role, PlatformRole } from '../entities/user.entity.js';
import { ShopMembership, ShopRole } from '../entities/shop-membership.entity.js';
import { BalanceKind } from '../entities/balance.entity.js';
import { hashPassword } from '../services/accounts/password.js';
import { createZeroBalances, credit } from '../services/accounts/ledger.service.js';
import { seedShowcase } from './showcase.js';
import { demoPictures } from './demo-pictures.js';
import { MediaAsset } from '../entities/media-asset.entity.js';
import type { MediaStore } from '../services/media/media-store.js';
import {
  ADMIN_EMAIL, BRANDS, CATEGORY_TREE, LEAF_NAMES_ZH, CUSTOMERS, DEMO_PASSWORD, POINTS_PRODUCTS, SEED_FUNDS, SEED_POINTS, SHOPS, VARIANTS, financeEmail, operatorEmail, startingStock,
} from './demo-data.js';

export class SeedRefused extends Error {}

/**
 * Loads the demo data once. Idempotent: when the admin account exists the seed has run and nothing is
 * added. An advisory lock makes two processes starting together seed once. The catalog and accounts
 * are written directly; promotions, orders and reviews go through the use cases (showcase.ts) in
 * the same transaction.
 */
export async function seedDemoData(orm: MikroORM, nodeEnv: string, mediaStore: MediaStore): Promise<'seeded' | 'already-seeded'> {
  if (nodeEnv === 'production') throw new SeedRefused('The demo seed refuses to run with NODE_ENV=production');
  // One hash per account, each with its own salt: a shared salt would show that the accounts share a
  // password, and let one guess be checked against all of them. Hashed before the transaction opens.
  // The admin, each shop's owner, the first shop's finance member, the customers.
  const accounts = 1 + SHOPS.length + 1 + CUSTOMERS.length;
  const hashes = await Promise.all(Array.from({ length: accounts }, () => hashPassword(DEMO_PASSWORD)));
  const passwordHash = () => hashes.pop()!;
  // The products' and shops' pictures go through the upload pipeline, before the transaction opens.
  const productCount = CATEGORY_TREE.reduce((sum, [, children]) => sum + children.reduce((n, [, leaves]) => n + leaves.length, 0), 0) * 2;
  const productPictures = await demoPictures(mediaStore, 'products', Array.from({ length: productCount }, (_, i) => String(i + 1)));
  const shopPictures = await demoPictures(mediaStore, 'shops', SHOPS.filter((s) => s.profile).map((s) => s.slug));
  return orm.em.fork().transactional(async (em) => {
    await em.execute('select pg_advisory_xact_lock(?)', [771_001]);
    if ((await em.count(User, { email: ADMIN_EMAIL })) > 0) return 'already-seeded';

    // Categories: materialized paths need the ids, so each level is flushed before the next.
    const leaves: Category[][] = [];
    let slugSeq = 0;
    const slug = (name: string) => `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${++slugSeq}`;
    const makeCategory = async (name: string, parent: Category | null, position: number) => {
      const category = em.create(Category, { name, slug: slug(name), parent, depth: parent ? parent.depth + 1 : 0, path: '', position });
      await em.flush();
      category.path = `${parent ? parent.path : '/'}${category.id}/`;
      return category;
    };
    for (const [topIndex, [topName, children]] of CATEGORY_TREE.entries()) {
      const top = await makeCategory(topName, null, topIndex);
      const topLeaves: Category[] = [];
      for (const [childIndex, [childName, grandchildren]] of children.entries()) {
        const child = await makeCategory(childName, top, childIndex);
        for (const [leafIndex, leafName] of grandchildren.entries()) topLeaves.push(await makeCategory(leafName, child, leafIndex));
      }
      leaves.push(topLeaves);
    }

    const brands = BRANDS.map((name, position) =>
      em.create(Brand, { name, position, logoUrl: `/demo-images/brands/${position + 1}.svg` }),
    );

    // A shop's logo is the platform's picture (shop profiles are the platform's content), as if its content staff uploaded it.
    const shops = SHOPS.map((s) => {
      const shop = em.create(Shop, { slug: s.slug, name: s.name });
      const logo = shopPictures.get(s.slug);
      if (s.profile && logo) {
        em.create(MediaAsset, { shop: null, digest: logo.digest, format: logo.format, width: logo.width, height: logo.height, byteSize: logo.byteSize, filename: logo.filename });
        em.create(ShopProfile, { shop, ...s.profile, logoUrl: logo.url });
      }
      return shop;
    });

    const productPicture = (shop: Shop, n: number) => {
      const picture = productPictures.get(String(n))!;
      em.create(MediaAsset, { shop, digest: picture.digest, format: picture.format, width: picture.width, height: picture.height, byteSize: picture.byteSize, filename: picture.filename });
      return picture.url;
    };

    // Two products per leaf category, sold by the shop that covers that top-level category.
    let n = 0;
    const opening: { sku: Sku; stock: number }[] = [];
    for (const [topIndex, topLeaves] of leaves.entries()) {
      const shop = shops[SHOPS.findIndex((s) => s.sells.includes(topIndex))];
      for (const leaf of topLeaves) {
        for (const edition of ['Classic', 'Pro']) {
          n++;
          const variants = VARIANTS[n % VARIANTS.length];
          const basePrice = 1_990 + ((n * 7_919) % 60_000);
          const product = em.create(Product, {
            shop,
            category: leaf,
            brand: n % 5 === 0 ? null : brands[n % brands.length],
            ...(n % 4 === 0 && LEAF_NAMES_ZH[leaf.name]
              ? {
                  // The Chinese word first, as a shopper types it: the search box completes names from their start.
                  name: `${LEAF_NAMES_ZH[leaf.name]}${edition === 'Classic' ? '经典款' : '专业款'} ${brands[n % brands.length].name}`,
                  description: `${edition === 'Classic' ? '经典' : '专业'}之选，来自我们的${LEAF_NAMES_ZH[leaf.name]}系列。`,
                }
              : {
                  name: `${brands[n % brands.length].name} ${leaf.name} ${edition}`,
                  description: `A ${edition.toLowerCase()} pick from our ${leaf.name.toLowerCase()} range.`,
                }),
            // Uploaded through the pipeline above, as the shop's own picture: the demo asks no other host.
            imageUrl: productPicture(shop, n),
            // A few stay in draft or are withdrawn, so the lifecycle is visible in the demo.
            status: n % 17 === 0 ? ProductStatus.Draft : n % 19 === 0 ? ProductStatus.Unpublished : ProductStatus.Published,
            priceFrom: basePrice,
          });
          variants.forEach((name, i) => opening.push({ sku: em.create(Sku, { product, name, price: basePrice + i * 500, stock: 0 }), stock: startingStock(n, i) }));
        }
      }
    }
    await em.flush();
    // Every SKU's starting stock is an inventory adjustment, as a shop's own first stock is.
    await adjustSkuStock(em, opening.map(({ sku, stock }) => ({ skuId: sku.id, set: stock })));

    const someProduct = await em.findOneOrFail(Product, { status: ProductStatus.Published }, { orderBy: { id: 'asc' } });
    const content: Record<ContentKind, { title: string; destination: string; active: boolean }[]> = {
      [ContentKind.Banners]: [
        { title: 'Flash deals every hour', destination: '/flash-sales', active: true },
        { title: 'Team up and save', destination: '/group-buys', active: true },
        { title: `Meet ${SHOPS[0].name}`, destination: `/shops/${SHOPS[0].slug}`, active: true },
        { title: 'Last season clearance', destination: '/', active: false },
      ],
      [ContentKind.Promos]: [
        { title: 'Grab shop coupons', destination: '/coupons', active: true },
        { title: 'Spend your points', destination: '/points', active: true },
        { title: 'Old promo', destination: '/coupons', active: false },
      ],
      [ContentKind.QuickLinks]: [
        { title: 'Electronics', destination: `/categories/${leaves[0][0].path.split('/')[1]}`, active: true },
        { title: `${brands[0].name} brand`, destination: `/brands/${brands[0].id}`, active: true },
        { title: 'Points mall', destination: '/points', active: true },
        { title: 'Retired link', destination: '/', active: false },
      ],
      [ContentKind.FloorAdverts]: [
        { title: someProduct.name, destination: `/products/${someProduct.id}`, active: true },
        { title: `Fresh from ${SHOPS[3].name}`, destination: `/shops/${SHOPS[3].slug}`, active: true },
        { title: 'Paused advert', destination: '/', active: false },
      ],
    };
    for (const [kind, items] of Object.entries(content) as [ContentKind, (typeof content)[ContentKind]][]) {
      items.forEach((item, position) =>
        em.create(HomeContentItem, { kind, position, ...item, imageUrl: `/demo-images/content/${kind.replace('_', '-')}-${position}.svg` }),
      );
    }

    POINTS_PRODUCTS.forEach((item, i) =>
      em.create(PointsProduct, { ...item, imageUrl: `/demo-images/points/${i + 1}.svg` }),
    );

    em.create(User, { email: ADMIN_EMAIL, passwordHash: passwordHash(), displayName: 'Platform Admin', role: Role.PlatformAdmin, platformRole: PlatformRole.Admin });
    // Each shop's operator owns it; the first shop has a finance member too (sees money, not the catalog).
    const operators = new Map(shops.map((shop) => {
      const user = em.create(User, { email: operatorEmail(shop.slug), passwordHash: passwordHash(), displayName: `${shop.name} Operator`, role: Role.ShopOperator });
      em.create(ShopMembership, { user, shop, role: ShopRole.Owner });
      return [shop.slug, { get id() { return user.id; }, role: Role.ShopOperator, shop, shopRole: ShopRole.Owner }];
    }));
    const finance = em.create(User, { email: financeEmail(shops[0].slug), passwordHash: passwordHash(), displayName: `${shops[0].name} Finance`, role: Role.ShopOperator });
    em.create(ShopMembership, { user: finance, shop: shops[0], role: ShopRole.Finance });
    const customers = CUSTOMERS.map((c) => em.create(User, { ...c, passwordHash: passwordHash(), role: Role.Customer }));
    await em.flush();

    await createZeroBalances(em, customers.map((c) => c.id));
    for (const customer of customers) {
      await credit(em, { userId: customer.id, kind: BalanceKind.Available, amount: SEED_FUNDS, reason: 'seed' });
      await credit(em, { userId: customer.id, kind: BalanceKind.Points, amount: SEED_POINTS, reason: 'seed' });
    }
    const [alice, bob] = customers;
    await seedShowcase(em, nodeEnv, { operators, alice, bob });
    return 'seeded';
  });
}
