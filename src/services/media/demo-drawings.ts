import { createHash } from 'node:crypto';

/**
 * The demo catalog's pictures, drawn here: brands, banners, home content and points items are served
 * as drawn (`/demo-images/<kind>/<n>.svg`, src/server/demo-images.ts), and the products' and shops'
 * drawings are uploaded through the media pipeline by the seed (src/seed/demo-pictures.ts), so the
 * storefront's demo never asks another host for anything. Each picture is a small deterministic SVG
 * (the same name gives the same bytes), with its width and height in the document: it never changes.
 */
export const DEMO_IMAGE_SIZES = {
  products: [800, 600],
  brands: [240, 240],
  shops: [240, 240],
  banners: [1200, 400],
  content: [800, 400],
  points: [800, 600],
} as const;

export type DemoImageKind = keyof typeof DEMO_IMAGE_SIZES;

/** The path of a demo picture (the seed's image addresses). */
export const demoImagePath = (kind: DemoImageKind, name: string | number) => `/demo-images/${kind}/${name}.svg`;

/** Shapes a picture may carry: a parcel, a circle, a tag, a leaf. */
const SHAPES = [
  (w: number, h: number) => `<rect x="${w * 0.32}" y="${h * 0.3}" width="${w * 0.36}" height="${h * 0.4}" rx="${w * 0.03}" fill="#fff" fill-opacity=".85"/><path d="M${w * 0.32} ${h * 0.42}h${w * 0.36}" stroke="#000" stroke-opacity=".15" stroke-width="${w * 0.01}"/>`,
  (w: number, h: number) => `<circle cx="${w / 2}" cy="${h / 2}" r="${Math.min(w, h) * 0.24}" fill="#fff" fill-opacity=".85"/>`,
  (w: number, h: number) => `<path d="M${w * 0.3} ${h * 0.35}h${w * 0.28}l${w * 0.14} ${h * 0.15}-${w * 0.14} ${h * 0.15}h-${w * 0.28}z" fill="#fff" fill-opacity=".85"/>`,
  (w: number, h: number) => `<ellipse cx="${w / 2}" cy="${h / 2}" rx="${w * 0.2}" ry="${h * 0.13}" transform="rotate(-30 ${w / 2} ${h / 2})" fill="#fff" fill-opacity=".85"/>`,
];

/** The SVG of one demo picture. */
export function demoImageSvg(kind: DemoImageKind, name: string): string {
  const [w, h] = DEMO_IMAGE_SIZES[kind];
  const digest = createHash('sha256').update(`${kind}/${name}`).digest();
  const hue = (digest[0] * 360) / 256;
  const hue2 = (hue + 30 + (digest[1] % 60)) % 360;
  const shape = SHAPES[digest[2] % SHAPES.length](w, h);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue.toFixed(0)} 70% 62%)"/><stop offset="1" stop-color="hsl(${hue2.toFixed(0)} 65% 45%)"/></linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#g)"/>${shape}</svg>`
  );
}
