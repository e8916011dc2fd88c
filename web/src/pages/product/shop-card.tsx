import { Link } from 'react-router';
import { Image } from '../../ui/image';

interface ShopCardData {
  slug: string;
  name: string;
  profile?: { logoUrl: string; description?: string | null } | null;
}

/** Who sells the product, as malls show it under the buy buttons: logo, name, a line about the shop, and the way in. */
export function ShopCard({ shop }: { shop: ShopCardData }) {
  return (
    <section className="shop-card" aria-label={`Sold by ${shop.name}`}>
      <Image src={shop.profile?.logoUrl} alt="" className="shop-logo" width={48} height={48} />
      <div className="shop-card-text">
        <strong>{shop.name}</strong>
        {shop.profile?.description ? <p className="meta">{shop.profile.description}</p> : null}
      </div>
      <Link to={`/shops/${shop.slug}`} className="button">
        Visit shop
      </Link>
    </section>
  );
}
