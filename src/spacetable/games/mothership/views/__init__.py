"""What people and learners see of a Mothership position; views never change a state.

The terminal drawing (``render``), the web board (``web`` with its grid, side panels, markup
and words), the observation tensor (``tensor``) and designers' batch figures (``report``).
"""
