# The forge image used by docker-compose.yml for workers and `forge serve`.
# LibreOffice is included for the office verification queue.
FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends libreoffice-calc libreoffice-writer libreoffice-impress python3-uno \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
# Workers parse untrusted documents (LibreOffice) and model output: not as root.
RUN useradd --system --create-home --uid 10001 forge && mkdir -p /app/out /app/.forge && chown forge:forge /app/out /app/.forge
USER forge
ENTRYPOINT ["./bin/forge"]
