from plateau.cli import main

raise SystemExit(main())
