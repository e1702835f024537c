"""What people and learners see of a SpaceRace position; views never change a state.

The terminal drawing (``render``), the web board (``web`` and the modules it is drawn with), the
web table's guide line and end-screen words (``web_guide``) and the observation tensor (``tensor``).
"""
