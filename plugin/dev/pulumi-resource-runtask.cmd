@echo off
rem The runtask provider plugin of this working tree, for Pulumi.yaml's plugins.providers on Windows (see pulumi-resource-runtask).
set "node=%~dp0..\..\node_modules\node\bin\node.exe"
if not exist "%node%" set "node=node"
"%node%" "%~dp0..\..\dist\plugin\bin\runtask.js" %*
