import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { assertCredentialTransport, isLoopbackHost } from '../../../src/venue/http/index.ts';

function refusal(url: string): QuantaError {
  try {
    assertCredentialTransport(url);
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    expect((error as QuantaError).code).toBe(ErrorCodes.INSECURE_TRANSPORT);
    return error as QuantaError;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe('assertCredentialTransport', () => {
  it.each([
    'https://venue.example',
    'https://venue.example:8443/prefix/',
    'HTTPS://VENUE.EXAMPLE',
    'http://127.0.0.1:8080',
    'http://127.255.3.4',
    'http://127.1:9000',
    'http://localhost:3000',
    'http://LOCALHOST',
    'http://[::1]:8080',
    'http://[0:0:0:0:0:0:0:1]/',
  ])('allows %s', (url) => {
    expect(() => assertCredentialTransport(url)).not.toThrow();
  });

  it.each([
    'http://venue.example',
    'http://10.0.0.5:8080',
    'http://0.0.0.0:8080',
    'http://128.0.0.1',
    'http://localhost.evil.example',
    'http://127.0.0.1.nip.io',
    'http://[::2]',
    'http://[::ffff:127.0.0.1]',
    'ws://127.0.0.1',
    'ftp://venue.example',
  ])('refuses %s', (url) => {
    refusal(url);
  });

  it('says to use https and never shows user info or query', () => {
    expect(refusal('http://user:hunter2@venue.example:8080/api?key=s3cr3t').message)
      .toMatchInlineSnapshot(`
        "venue URL http://venue.example:8080 is plain http to a non-loopback host; refusing to send credentials over it, use https://venue.example:8080
        plain http is allowed only to localhost, 127.0.0.0/8 and [::1]"
      `);
  });

  it('refuses a string that is not a URL without echoing it', () => {
    const e = refusal('not a url with s3cr3t');
    expect(e.message).not.toContain('s3cr3t');
    expect(e.shortMessage).toMatchInlineSnapshot(
      `"venue URL is not a valid URL; refusing to send credentials to it"`,
    );
  });
});

describe('isLoopbackHost', () => {
  it('knows loopback names', () => {
    expect(['localhost', '127.0.0.1', '127.9.9.9', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['::1', '1.127.0.0', 'example.com', '', '127.0.0'].some(isLoopbackHost)).toBe(false);
  });
});
