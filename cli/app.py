def main() -> None:
    import kalooki_cli, kalooki
    print(kalooki_cli.__file__, kalooki.__file__)
