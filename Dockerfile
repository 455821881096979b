# The forge image used by docker-compose.yml for workers and `forge serve`.
# LibreOffice is included for the office verification queue.
FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends libreoffice-calc libreoffice-writer libreoffice-impress \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
ENTRYPOINT ["./bin/forge"]
