"""The mail tests' fixtures for the clock tests: an SMTP server, an app that mails it, the worker run by hand."""

from tests.notify.conftest import app, mail_settings, notifier, service, smtp

__all__ = ["app", "mail_settings", "notifier", "service", "smtp"]
