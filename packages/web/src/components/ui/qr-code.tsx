import { toDataURL } from 'qrcode';
import { useEffect, useState } from 'react';
import { Spinner } from './spinner.tsx';

export interface QrCodeProps {
  /** The text the code carries (an otpauth:// URI, a link). */
  value: string;
  /** The image's text alternative: what the code is for. */
  alt: string;
  /** Width and height in CSS pixels. */
  size?: number;
  className?: string;
}

/** A QR code drawn as a data: image (the console's CSP allows data: images), a spinner while it is drawn. */
export function QrCode({ value, alt, size = 200, className }: QrCodeProps) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    toDataURL(value, { margin: 1, width: size })
      .then((url) => {
        if (live) setSrc(url);
      })
      .catch(() => setSrc(null));
    return () => {
      live = false;
    };
  }, [value, size]);
  return src ? (
    <img className={className} src={src} width={size} height={size} alt={alt} />
  ) : (
    <Spinner size="sm" label="Drawing the QR code" />
  );
}
