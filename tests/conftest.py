"""Fixtures and settings shared by every test folder."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Deadlines make property tests flaky on a busy 2-core CI machine; speed is measured in
# benchmarks/, not asserted here. CI runs derandomised so a red build is reproducible.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("ci" if os.environ.get("CI") else "default")
