import { type Config, namespacedDatabaseUrl } from '../config.ts';
import { readCredentials } from './credentials.ts';
import { stackLayout } from './layout.ts';

export interface S3Endpoint {
  endPoint: string;
  port: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

export interface ServiceEndpoints {
  temporalAddress: string;
  s3: S3Endpoint;
  databaseUrl: string;
}

/**
 * How to reach the three services, whether they are configured externally or run by `forge dev up`
 * (whose generated credentials are read from the stack home).
 */
export function resolveServiceEndpoints(config: Config): ServiceEndpoints {
  return {
    temporalAddress: config.temporalAddress,
    s3: s3Endpoint(config),
    databaseUrl: databaseUrl(config),
  };
}

function s3Endpoint(config: Config): S3Endpoint {
  const common = { bucket: config.S3_BUCKET, region: config.S3_REGION };
  if (config.S3_ENDPOINT) {
    const url = new URL(config.S3_ENDPOINT);
    const useSSL = url.protocol === 'https:';
    return {
      ...common,
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      // loadConfig guarantees both keys accompany S3_ENDPOINT.
      accessKey: config.S3_ACCESS_KEY!,
      secretKey: config.S3_SECRET_KEY!,
    };
  }
  const credentials = readCredentials(stackLayout(config).minioCredentials, 'MinIO');
  return {
    ...common,
    endPoint: config.FORGE_HOST,
    port: config.FORGE_MINIO_PORT,
    useSSL: false,
    accessKey: credentials.user,
    secretKey: credentials.password,
  };
}

export const localDatabaseName = 'forge';

function databaseUrl(config: Config): string {
  const url = config.DATABASE_URL ?? localPostgresUrl(config, localDatabaseName);
  return namespacedDatabaseUrl(url, config.FORGE_NAMESPACE);
}

export function localPostgresUrl(config: Config, database: string): string {
  const { user, password } = readCredentials(stackLayout(config).postgresCredentials, 'Postgres');
  const auth = `${encodeURIComponent(user)}:${encodeURIComponent(password)}`;
  return `postgres://${auth}@${config.FORGE_HOST}:${config.FORGE_POSTGRES_PORT}/${database}`;
}
