/**
 * The simulated network's answers (src/simulation/sim-response.ts) read as fetch's do: status
 * and headers as given, the body as text, JSON, bytes or a clone, once only.
 */
import { expect, it } from 'vitest';
import { SimResponse } from '../../../src/simulation/sim-response.ts';

const TEXT = '{"body":{"id":7},"message":"ok","status":200}';

function answer(): Response {
  return new SimResponse(TEXT, {
    status: 200,
    headers: { 'content-type': 'application/json', 'content-length': String(TEXT.length) },
  });
}

it('gives status, headers and the text, once', async () => {
  const response = answer();
  expect(response).toBeInstanceOf(Response);
  expect(response.status).toBe(200);
  expect(response.ok).toBe(true);
  expect(response.headers.get('content-length')).toBe(String(TEXT.length));
  expect(await response.text()).toBe(TEXT);
  await expect(response.text()).rejects.toThrow(TypeError);
  await expect(response.arrayBuffer()).rejects.toThrow('Body is unusable');
  expect(() => response.clone()).toThrow(TypeError);
});

it('reads as JSON, bytes, a blob or a clone as a Response of the same text does', async () => {
  expect(await answer().json()).toEqual(JSON.parse(TEXT));
  expect(Buffer.from(await answer().arrayBuffer()).toString()).toBe(TEXT);
  expect(await (await answer().blob()).text()).toBe(TEXT);
  const original = answer();
  const copy = original.clone();
  expect(await copy.text()).toBe(TEXT);
  expect(await original.text()).toBe(TEXT);
  expect(copy.status).toBe(200);
});

it("reads its headers as a fetch Response's headers read", () => {
  // Not in order and not all lower case: Headers sorts and lowercases the names.
  const record = {
    'retry-after': '1',
    Date: 'Tue, 14 Nov 2023 22:13:20 GMT',
    'content-type': 'text/plain',
  };
  const sim = new SimResponse('', { status: 429, headers: record }).headers;
  const real = new Response(null, { status: 429, headers: record }).headers;
  for (const name of ['date', 'DATE', 'Retry-After', 'content-length', 'set-cookie']) {
    expect(sim.get(name)).toBe(real.get(name));
    expect(sim.has(name)).toBe(real.has(name));
  }
  expect([...sim]).toEqual([...real]);
  expect([...sim.keys()]).toEqual([...real.keys()]);
  expect([...sim.values()]).toEqual([...real.values()]);
  expect(sim.getSetCookie()).toEqual(real.getSetCookie());
  const seen: string[] = [];
  sim.forEach((value, name) => seen.push(`${name}=${value}`));
  expect(seen).toEqual([...real].map(([name, value]) => `${name}=${value}`));
  expect(() => sim.set('date', 'x')).toThrow(TypeError);
  expect(() => sim.append('x-a', 'x')).toThrow(TypeError);
  expect(() => sim.delete('date')).toThrow(TypeError);
});

it("answers every member of Response.prototype itself (undici's would throw: none of its state is there)", () => {
  const response = answer();
  for (const name of Object.getOwnPropertyNames(Response.prototype)) {
    // Read without throwing is not enough: a method left to undici's prototype reads fine and
    // throws when called. Each member must be SimResponse's own (its class's or the instance's).
    if (name !== 'constructor')
      expect(
        Object.hasOwn(SimResponse.prototype, name) || Object.hasOwn(response, name),
        name,
      ).toBe(true);
    expect((): unknown => Reflect.get(response, name) as unknown, name).not.toThrow();
  }
  expect(response.type).toBe('default');
  expect(response.url).toBe('');
  expect(response.redirected).toBe(false);
  expect(response.body).toBeNull();
  expect(response.bodyUsed).toBe(false);
});
