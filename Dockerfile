# Carson City Online. Build: docker build -t carson-city .   Run: see docker-compose.yml and the README.

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
COPY pyproject.toml README.md ./
COPY app ./app
# Install the dependencies only; the application itself runs from /srv so that alembic.ini and
# migrations/ sit next to it.
RUN pip install . && pip uninstall -y carson-city-online

FROM python:3.11-slim AS runtime
RUN useradd --system --create-home --uid 10001 carson
COPY --from=build /opt/venv /opt/venv
WORKDIR /srv
COPY alembic.ini ./
COPY migrations ./migrations
COPY app ./app
COPY templates ./templates
COPY static ./static
# The message catalogs compiled at build time (the server would otherwise compile them in memory at each start).
RUN python -c "from app import i18n; i18n.compile_catalogs()" && mkdir -p /srv/var && chown carson /srv/var
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    ENVIRONMENT=production \
    DATA_DIR=/srv/var
USER carson
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]
CMD ["python", "-m", "app", "serve", "--host", "0.0.0.0", "--port", "8000"]
