import { describe, expect, it } from 'vitest';
import { isMobileUserAgent, isSupportedBrowser } from './device.ts';

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const IE11 = 'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko';
const OLD_EDGE =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0 Safari/537.36 Edge/18.17763';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const OLD_CHROME =
  'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0 Safari/537.36';

describe('isMobileUserAgent', () => {
  it('is true for phones and false for desktop browsers', () => {
    expect(isMobileUserAgent(IPHONE)).toBe(true);
    expect(isMobileUserAgent(CHROME)).toBe(false);
  });
});

describe('isSupportedBrowser', () => {
  it('accepts modern Chrome, Firefox and Safari', () => {
    expect(isSupportedBrowser(CHROME)).toBe(true);
    expect(isSupportedBrowser(FIREFOX)).toBe(true);
    expect(isSupportedBrowser(IPHONE)).toBe(true);
  });

  it('rejects IE, legacy Edge and old Chrome', () => {
    expect(isSupportedBrowser(IE11)).toBe(false);
    expect(isSupportedBrowser(OLD_EDGE)).toBe(false);
    expect(isSupportedBrowser(OLD_CHROME)).toBe(false);
  });
});
