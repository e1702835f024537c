from spacetable.cli.main import main

main()
