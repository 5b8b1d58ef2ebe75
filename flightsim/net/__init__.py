"""Networking (issue 36): DIS, the distributed-simulation standard (IEEE 1278.1)."""
