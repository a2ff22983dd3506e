import { afterEach, describe, expect, it, vi } from 'vitest';
import { uploadLogo } from '../api/upload-logo';

const JOB = '3f9a2b1c-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const SOURCE = 'http://app.test/files/companies/1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b/logo/upload-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d.png?exp=4102444800&sig=s';
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const logoFile = () => new File([PNG_BYTES], 'brand.png', { type: 'image/png' });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('POST /api/auth/upload-logo from the client', () => {
  it('sends the file as multipart in the field logo, with the boundary the platform writes, and reads the job id', async () => {
    let received: { method: string; url: string; contentType: string | null; file: unknown } | undefined;
    // The network is the boundary: the request is decoded by the platform's own Request, as a server would.
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(new URL(String(input), 'http://app.test'), init);
      const form = await request.formData();
      received = { method: request.method, url: new URL(request.url).pathname, contentType: request.headers.get('content-type'), file: form.get('logo') };
      return new Response(JSON.stringify({ logo_url: SOURCE, jobId: JOB }), { status: 200, headers: { 'content-type': 'application/json' } });
    });

    await expect(uploadLogo(logoFile())).resolves.toEqual({ logo_url: SOURCE, jobId: JOB });
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/api/auth/upload-logo');
    expect(received?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const file = received?.file as File;
    expect(file.name).toBe('brand.png');
    expect(file.type).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG_BYTES);
  });

  it('refuses an answer without its job', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ logo_url: SOURCE }), { status: 200, headers: { 'content-type': 'application/json' } }));
    await expect(uploadLogo(logoFile())).rejects.toMatchObject({ status: 200 });
  });
});

