import { createHash } from 'node:crypto';
import * as Minio from 'minio';
import type { S3Endpoint } from './dev/endpoints.ts';

export interface StoredArtifact {
  key: string;
  sha256: string;
  size: number;
}

/** Artifact keys remembered as written; past this the memory starts over. */
const WRITTEN_MEMORY = 10_000;

const notFoundCodes = new Set(['NotFound', 'NoSuchKey', 'NoSuchObject']);

/**
 * The artifact store: plain S3 calls through the minio client, so any S3 endpoint works.
 * Artifacts are keyed by content hash, which makes a retried upload a no-op.
 */
export class ObjectStore {
  readonly bucket: string;
  private readonly client: Minio.Client;
  private readonly region: string;
  private readonly written = new Set<string>();

  constructor(endpoint: S3Endpoint) {
    this.bucket = endpoint.bucket;
    this.region = endpoint.region;
    this.client = new Minio.Client({
      endPoint: endpoint.endPoint,
      port: endpoint.port,
      useSSL: endpoint.useSSL,
      accessKey: endpoint.accessKey,
      secretKey: endpoint.secretKey,
      region: endpoint.region,
      pathStyle: true,
    });
  }

  async ensureBucket(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region);
    } catch (err) {
      // Another process may have created it between our check and our call.
      if (!(await this.client.bucketExists(this.bucket))) throw err;
    }
  }

  /** Answers when the store is reachable and the bucket is there (the service watch's probe). */
  async ping(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) throw new Error(`bucket ${this.bucket} is missing`);
  }

  static artifactKey(sha256: string): string {
    return `artifacts/sha256/${sha256}`;
  }

  /**
   * One write per artifact: the key is the content's hash, so writing it again is harmless and
   * cheaper than asking first. Keys this process wrote are remembered (bounded) and not rewritten.
   */
  async putArtifact(bytes: Uint8Array, contentType: string): Promise<StoredArtifact> {
    const described = ObjectStore.describeArtifact(bytes);
    const { key } = described;
    if (!this.written.has(key)) {
      await this.putObject(key, bytes, contentType);
      if (this.written.size >= WRITTEN_MEMORY) this.written.clear();
      this.written.add(key);
    }
    return described;
  }

  /** The key, hash and size an artifact has in the store, without writing it. */
  static describeArtifact(bytes: Uint8Array): StoredArtifact {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return { key: ObjectStore.artifactKey(sha256), sha256, size: bytes.byteLength };
  }

  async putObject(key: string, body: Uint8Array | string, contentType: string): Promise<void> {
    const buffer = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
    await this.client.putObject(this.bucket, key, buffer, buffer.byteLength, { 'Content-Type': contentType });
  }

  async getObject(key: string): Promise<Buffer> {
    const stream = await this.client.getObject(this.bucket, key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream)
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
    return Buffer.concat(chunks);
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.statObject(this.bucket, key);
      return true;
    } catch (err) {
      if (notFoundCodes.has(String((err as { code?: unknown }).code))) return false;
      throw err;
    }
  }

  presignedGetUrl(key: string, seconds: number): Promise<string> {
    return this.client.presignedGetObject(this.bucket, key, seconds);
  }

  /** Every key under prefix (recursively), sorted. */
  /** Deletes every object and then the bucket: the end of a namespace (the test suite's own). */
  async deleteBucket(): Promise<void> {
    this.written.clear();
    if (!(await this.client.bucketExists(this.bucket))) return;
    const keys = await this.listPrefix('');
    for (let i = 0; i < keys.length; i += 1000)
      await this.client.removeObjects(this.bucket, keys.slice(i, i + 1000));
    await this.client.removeBucket(this.bucket);
  }

  async listPrefix(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
      const name = (item as { name?: string }).name;
      if (name !== undefined) keys.push(name);
    }
    return keys.sort();
  }
}
