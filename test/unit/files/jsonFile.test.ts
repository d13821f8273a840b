import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readDocument, readJsonFile } from '../../../src/files/jsonFile';

describe('readJsonFile', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'json-file-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string | Buffer) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const fail = (message: string) => new Error(`failed: ${message}`);

  it('reads ASCII and UTF-8 text alike: characters beyond ASCII (names, symbols) come out as written', () => {
    const value = { ascii: 'USDC', beyond: 'USD₮0 ❤️ café', escaped: '\u00e9', nested: [1, { a: 'x' }] };
    expect(readJsonFile(write('ascii.json', JSON.stringify({ ascii: 'USDC', n: 1 })), fail)).toEqual({ ascii: 'USDC', n: 1 });
    expect(readJsonFile(write('utf8.json', JSON.stringify(value)), fail)).toEqual(value);
    // "₮" is 3 bytes in UTF-8 and one character once read
    expect((readJsonFile(write('symbol.json', '{"s":"USD₮0"}'), fail) as { s: string }).s).toHaveLength(5);
  });

  it('names the file and the reason when it cannot be read or parsed', () => {
    expect(() => readJsonFile(path.join(dir, 'missing.json'), fail)).toThrow(/^failed: cannot read .*missing\.json: ENOENT/);
    expect(() => readJsonFile(write('bad.json', '{"a":'), fail)).toThrow(/^failed: cannot read .*bad\.json: .*JSON/);
    // a byte that is not UTF-8 becomes the replacement character (the file is read as UTF-8)
    expect(readJsonFile(write('latin1.json', Buffer.from([0x22, 0xe9, 0x22])), fail)).toBe('\ufffd');
  });

  it('reads a document with its path', () => {
    write('doc.json', '{"k":true}');
    expect(readDocument(dir, 'doc.json', fail)).toEqual({ source: path.join(dir, 'doc.json'), json: { k: true } });
  });
});
