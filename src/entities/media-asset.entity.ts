import { Entity, PrimaryKey, Property, ManyToOne, Index, Unique, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';
import { User } from './user.entity.js';

/**
 * An uploaded picture of a shop (its products) or of the platform (shop logos and banners, brands,
 * home content), with its thumbnails kept in the media store under its digest
 * (src/services/media/). The digest is the SHA-256 of the bytes as uploaded: the same picture sent
 * again by the same owner is the same asset, and its thumbnails' addresses never change, so they are
 * cached for a year. `shop` is null for the platform's own pictures.
 */
@Entity()
@Unique({
  name: 'media_asset_owner_digest_unique',
  expression: 'create unique index "media_asset_owner_digest_unique" on "media_asset" ("shop_id", "digest") nulls not distinct',
})
@Index({ name: 'media_asset_shop_id_id_index', properties: ['shop', 'id'] })
@Check({ name: 'media_asset_digest_hex', expression: "digest ~ '^[0-9a-f]{64}$'" })
@Check({ name: 'media_asset_size_positive', expression: 'width > 0 and height > 0 and byte_size > 0' })
export class MediaAsset {
  declare [EntityName]?: 'MediaAsset';

  @PrimaryKey()
  id!: number;

  // A shop's pictures go with it (shops are closed, not deleted; a test's clean-up deletes them).
  @ManyToOne(() => Shop, { nullable: true, deleteRule: 'cascade' })
  shop?: Rel<Shop> | null;

  @Property({ length: 64 })
  digest!: string;

  /** The uploaded file's format as its bytes say (not as its sender claimed): jpeg, png, webp, gif, avif. */
  @Property({ columnType: 'text' })
  format!: string;

  @Property()
  width!: number;

  @Property()
  height!: number;

  @Property()
  byteSize!: number;

  /** The name the file had on the uploader's machine, to find it again in the library. */
  @Property({ length: 200 })
  filename!: string;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  uploadedBy?: Rel<User> | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
