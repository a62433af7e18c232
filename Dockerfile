# The Ludex service: HTTP on 8000, gRPC on 50051. The store is LUDEX_DB (SQLite in /data by
# default; see compose.yaml for PostgreSQL and two replicas). `ludex serve` migrates the store's
# schema when it starts; `ludex migrate` does it alone.
FROM python:3.11-slim

WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY api ./api
COPY search ./search
COPY dsl ./dsl
COPY grammars ./grammars
COPY ludex ./ludex
COPY rulesets ./rulesets
COPY runtime ./runtime
RUN pip install --no-cache-dir . && rm -rf /src \
 && useradd --system --uid 10001 ludex && mkdir -p /data /keys && chown ludex /data /keys

WORKDIR /data
ENV LUDEX_DB=sqlite:////data/ludex.db
EXPOSE 8000 50051
USER ludex
CMD ["ludex", "serve", "--host", "0.0.0.0", "--http-port", "8000", "--grpc-port", "50051", "--access-log"]
