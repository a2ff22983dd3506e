import { afterEach, describe, expect, it } from 'vitest';
import { uploadLogo } from '../api/upload-logo';

const realFetch = globalThis.fetch;

describe('POST /api/auth/upload-logo from the client', () => {
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('sends the file as multipart in the field logo, with the boundary the platform writes', async () => {
    let received:
      | {
          method: string;
          url: string;
          contentType: string | null;
          file: unknown;
        }
      | undefined;
    // The network is the boundary: the request is decoded by the platform's own Request, as a server would.
    globalThis.fetch = async (input, init) => {
      const request = new Request(new URL(String(input), 'http://app.test'), init);
      const form = await request.formData();
      received = {
        method: request.method,
        url: new URL(request.url).pathname,
        contentType: request.headers.get('content-type'),
        file: form.get('logo'),
      };
      return new Response(JSON.stringify({ logo_url: 'http://app.test/api/public/logo/x?v=1' }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'brand.png', {
      type: 'image/png',
    });

    await expect(uploadLogo(png)).resolves.toEqual({
      logo_url: 'http://app.test/api/public/logo/x?v=1',
    });
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/api/auth/upload-logo');
    expect(received?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const file = received?.file as File;
    expect(file.name).toBe('brand.png');
    expect(file.type).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
  });
});
