import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './infra/db/schema.ts',
  out: './infra/db/migrations',
});
