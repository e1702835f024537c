"""What people and learners see of a Mothership position: the terminal drawing (``render``), the
web board (``web`` with its grid, side panels, markup and words), the observation tensor
(``tensor``) and designers' batch figures (``report``). Views read states and labelled actions;
they never change them.
"""
