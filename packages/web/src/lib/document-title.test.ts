import { afterEach, describe, expect, it } from 'vitest';
import { documentTitle, setHeaderName, setRouteTitle } from './document-title.ts';

describe('document title (issue 41)', () => {
  afterEach(() => {
    setRouteTitle({ pages: [], namedByHeader: false });
    setHeaderName(null);
  });

  it('joins the parts innermost first, drops empty and repeated ones, and ends with Berth', () => {
    expect(documentTitle(['web', 'Apps'])).toBe('web · Apps · Berth');
    expect(documentTitle([null, 'Apps', undefined, ' '])).toBe('Apps · Berth');
    expect(documentTitle(['Security', 'Settings', 'Settings'])).toBe('Security · Settings · Berth');
    expect(documentTitle([])).toBe('Berth');
    expect(documentTitle(['Berth'])).toBe('Berth');
  });

  it('leads with the header only on a resource page', () => {
    setHeaderName('web');
    setRouteTitle({ pages: ['Apps'], namedByHeader: true });
    expect(document.title).toBe('web · Apps · Berth');
    setRouteTitle({ pages: ['Apps'], namedByHeader: false });
    expect(document.title).toBe('Apps · Berth');
    setRouteTitle({ pages: ['Members', 'Settings'], namedByHeader: true });
    setHeaderName(null);
    expect(document.title).toBe('Members · Settings · Berth');
  });
});
