# SPDX-License-Identifier: Apache-2.0
import os

# Measurements stay in memory: the suite never writes the user's tuning cache.
os.environ.setdefault("IPT_TUNING_CACHE", "")
