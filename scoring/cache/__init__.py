"""The one place that caches, invalidates, waits and warms (docs/architecture.md, "The cache
package"). The rest of the code calls `announce_results_changed` when it writes results."""

from scoring.cache.announce import announce_results_changed

__all__ = ["announce_results_changed"]
