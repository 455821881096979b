import { mkdirSync } from 'node:fs';
import { binaryPath } from '../binaries.ts';
import { ensureCredentials } from '../credentials.ts';
import type { LocalService } from '../service.ts';

/** MinIO as the S3 endpoint; root credentials are generated on first start and kept. */
export const minioService: LocalService = {
  name: 'minio',
  processMatch: 'minio',
  binaries: ['minio'],
  ports: (config) => [
    { label: 'S3 API', port: config.FORGE_MINIO_PORT },
    { label: 'console', port: config.FORGE_MINIO_CONSOLE_PORT },
  ],
  address: (config) => `http://${config.FORGE_HOST}:${config.FORGE_MINIO_PORT}`,
  external: (config) => config.external.s3,
  async prepare(config, layout) {
    const credentials = ensureCredentials(layout.minioCredentials, 'MinIO', 'forge');
    mkdirSync(layout.minioData, { recursive: true });
    return {
      command: binaryPath(layout, 'minio'),
      args: [
        'server',
        layout.minioData,
        '--address',
        `${config.FORGE_HOST}:${config.FORGE_MINIO_PORT}`,
        '--console-address',
        `${config.FORGE_HOST}:${config.FORGE_MINIO_CONSOLE_PORT}`,
        '--quiet',
      ],
      env: {
        MINIO_ROOT_USER: credentials.user,
        MINIO_ROOT_PASSWORD: credentials.password,
        MINIO_UPDATE: 'off',
      },
    };
  },
  async healthy(config) {
    try {
      const res = await fetch(`http://${config.FORGE_HOST}:${config.FORGE_MINIO_PORT}/minio/health/live`, {
        signal: AbortSignal.timeout(2000),
      });
      return res.ok;
    } catch {
      return false;
    }
  },
  stopSignal: 'SIGTERM',
  startTimeoutMs: 90_000,
};
