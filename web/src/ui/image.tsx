import { useState } from 'react';

interface Props {
  src: string | null | undefined;
  alt: string;
  className?: string;
  width?: number;
  height?: number;
  lazy?: boolean;
  /** The first screen's largest picture: asked for before the others. */
  priority?: boolean;
  /** How wide it shows (the `sizes` attribute), for an uploaded picture's widths; default its `width` in pixels. */
  sizes?: string;
}

/** An uploaded picture's address (`/media/<digest>/<width>.webp`): its other widths share the name. */
const UPLOADED = /^\/media\/([0-9a-f]{64})\/\d+\.webp$/;
/** The widths every uploaded picture has (src/services/media/media-keys.ts). */
const WIDTHS = [160, 320, 640, 1280];

/** The `srcset` of an uploaded picture, so the browser takes the smallest width that is sharp on its screen; none for another address. */
function widthsOf(src: string): string | undefined {
  const match = UPLOADED.exec(src);
  return match ? WIDTHS.map((w) => `/media/${match[1]}/${w}.webp ${w}w`).join(', ') : undefined;
}

/**
 * An image that becomes the grey placeholder when it has no address or its address does not load:
 * image URLs are the shops' own and may point anywhere (the demo data's host does not exist), and a
 * broken-image icon is worse than the placeholder.
 */
export function Image({ src, alt, className, width, height, lazy = true, priority = false, sizes }: Props) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) {
    return <div className={['image-placeholder', className].filter(Boolean).join(' ')} aria-hidden="true" />;
  }
  const srcSet = widthsOf(src);
  return (
    <img
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? (sizes ?? (width ? `${width}px` : undefined)) : undefined}
      alt={alt}
      className={className}
      width={width}
      height={height}
      loading={lazy && !priority ? 'lazy' : undefined}
      fetchPriority={priority ? 'high' : undefined}
      onError={() => setFailed(src)}
    />
  );
}
