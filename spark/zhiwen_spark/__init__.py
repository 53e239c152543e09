"""Zhiwen on Apache Spark: the exact Hamming join and passages over Parquet exports."""
