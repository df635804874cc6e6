import type { ReactNode } from 'react';

/**
 * spec 3 §9: the style guide's sections (colors to a QR example), then the kit's pieces the spec's list
 * leaves out. Their order is the page's.
 */
export const GUIDE_SECTIONS = {
  colors: 'Colors',
  typography: 'Typography',
  buttons: 'Buttons',
  banners: 'Banners',
  tables: 'Tables',
  forms: 'Forms',
  logs: 'Logs',
  pills: 'Pills',
  navigation: 'Navigation',
  icons: 'Icons',
  tooltips: 'Tooltips',
  'detail-boxes': 'Detail boxes',
  secrets: 'Secrets',
  boxes: 'Boxes',
  qr: 'QR code',
  states: 'Loading, empty and error states',
  confirmations: 'Confirmations',
  toasts: 'Toasts',
} as const;

export type GuideSectionId = keyof typeof GUIDE_SECTIONS;

/** One section: its heading (the index links to it), where its pieces live, then its specimens. */
export function GuideSection({
  id,
  source,
  children,
}: {
  id: GuideSectionId;
  /** The files a newcomer imports these from. */
  source: ReactNode;
  children: ReactNode;
}) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} className="guide-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="guide-section-title">
        {GUIDE_SECTIONS[id]}
      </h2>
      <p className="guide-source">{source}</p>
      <div className="guide-specimens">{children}</div>
    </section>
  );
}

export interface SpecimenProps {
  /** The piece and its state, shown under it ("Primary, disabled"). */
  label: string;
  /**
   * Shows a state the pointer or the keyboard would cause (ui.css `[data-preview]`): the kit's own rule,
   * so the guide can set it beside the others.
   */
  preview?: 'hover' | 'focus' | 'open';
  /** Takes the whole row (tables, forms, long banners). */
  wide?: boolean;
  children: ReactNode;
}

/** One piece in one state, named under it. */
export function Specimen({ label, preview, wide = false, children }: SpecimenProps) {
  return (
    <figure className={wide ? 'specimen specimen-wide' : 'specimen'}>
      <div className="specimen-canvas" data-preview={preview}>
        {children}
      </div>
      <figcaption className="specimen-label">{label}</figcaption>
    </figure>
  );
}

/** A file of the kit, named as a newcomer would import it. */
export function Source({ path }: { path: string }) {
  return <code>{path}</code>;
}
