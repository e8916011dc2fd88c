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
}

/**
 * An image that becomes the grey placeholder when it has no address or its address does not load:
 * image URLs are the shops' own and may point anywhere (the demo data's host does not exist), and a
 * broken-image icon is worse than the placeholder.
 */
export function Image({ src, alt, className, width, height, lazy = true, priority = false }: Props) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) {
    return <div className={['image-placeholder', className].filter(Boolean).join(' ')} aria-hidden="true" />;
  }
  return <img src={src} alt={alt} className={className} width={width} height={height} loading={lazy && !priority ? 'lazy' : undefined} fetchPriority={priority ? 'high' : undefined} onError={() => setFailed(src)} />;
}
